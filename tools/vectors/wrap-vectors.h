/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* gen-vectors --wrap: vectors/wrap.txt (wrap-vectors.c). */
#ifndef WRAP_VECTORS_H
#define WRAP_VECTORS_H

#include <stdio.h>

void generate_wrap(FILE *f);

#endif
