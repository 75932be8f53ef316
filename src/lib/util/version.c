/* The library's build facts (g16.h, g16_build_version), fixed when it was
 * configured (src/lib/util/CMakeLists.txt). */
#include "g16.h"

void g16_build_version(g16_build *out)
{
    out->version = G16_VERSION;
    out->commit = G16_GIT_COMMIT;
    out->soname_version = G16_SOVERSION;
    out->cuda = G16_CUDA_BUILT;
}
