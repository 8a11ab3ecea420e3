#include "util/freememory.h"

#include <cstdlib> // defines __GLIBC__ where it is glibc
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace fusiondiff {

void returnFreedMemoryToSystem()
{
#if defined(__GLIBC__)
    ::malloc_trim(0);
#endif
}

} // namespace fusiondiff
