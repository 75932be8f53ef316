/* The verification key of a zkey we just wrote, for `g16 synth --setup`.
 * The JSON (with e(alpha1, beta2)) is the verify module's vk_export_json;
 * this file only opens the key and writes the text atomically.  Built
 * without that module, it reports that the export is unavailable. */
#include "setup/setup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/formats.h"
#ifdef SETUP_HAVE_VERIFY
#include "verify/verify.h"
#endif

int setup_write_vk(const char *zkey_path, const char *vk_path, char *err, size_t errlen)
{
#ifdef SETUP_HAVE_VERIFY
    zkey z;
    char *json = NULL;
    memset(&z, 0, sizeof z);
    int rc = zkey_open(zkey_path, &z, err, errlen);
    if (!rc && vk_export_json(&z, zkey_path, &json, err, errlen)) rc = G16_ERR_UNSUPPORTED;
    if (!rc && atomic_write_file(vk_path, json, strlen(json), err, errlen)) rc = G16_ERR_IO;
    free(json);
    zkey_close(&z);
    return rc;
#else
    (void)zkey_path;
    snprintf(err, errlen, "%s: verification key export is not built in (needs src/verify)",
             vk_path);
    return G16_ERR_UNSUPPORTED;
#endif
}

g16_status g16_setup_write_vk(const char *zkey_path, const char *vk_path, char *err, size_t errlen)
{
    return setup_write_vk(zkey_path, vk_path, err, errlen);
}
