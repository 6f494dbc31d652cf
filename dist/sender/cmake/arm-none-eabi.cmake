# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Cortex-M4 with Debian's gcc-arm-none-eabi, bare metal:
#   cmake -DCMAKE_TOOLCHAIN_FILE=path/to/arm-none-eabi.cmake ...
# A vendor SDK's own toolchain file serves as well.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
# No C library or startup to link a test program with: try static libs.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_C_FLAGS_INIT "-mcpu=cortex-m4 -mthumb -ffreestanding")
