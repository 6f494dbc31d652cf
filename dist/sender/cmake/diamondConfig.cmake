# SPDX-License-Identifier: GPL-2.0 OR MIT
# find_package(diamond): the imported target diamond::sender.
include("${CMAKE_CURRENT_LIST_DIR}/diamondTargets.cmake")
