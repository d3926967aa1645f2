/* kernel/banner.h - the boot banner: what a student reads first. */
#ifndef KERNEL_BANNER_H
#define KERNEL_BANNER_H

#define SPINDLE_VERSION "0.1"

void banner_print(void);

#endif
