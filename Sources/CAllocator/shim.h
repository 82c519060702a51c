#ifndef PIPELINE_CALLOCATOR_SHIM_H
#define PIPELINE_CALLOCATOR_SHIM_H

// glibc's allocator settings (mallopt), which Swift's Glibc module leaves out.
#include <malloc.h>

#endif
