/* g16_synth_setup: a synthetic circuit's key without its .r1cs on disk.
 * At 2^26 BLS12-381 constraints the .r1cs is ~11 GiB beside a ~50 GiB key
 * and a 2 GiB witness; the circuit goes from the generator to the setup
 * through an in-memory file instead. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "setup/setup.h"
#include "synth/synth.h"

/* Maps the in-memory .r1cs, parses it (the same checks as a file) and
 * runs the setup on it. */
static int setup_from_fd(int fd, const char *zkey_path, const g16_setup_options *opt, char *err,
                         size_t errlen)
{
    struct stat st;
    if (fstat(fd, &st) || st.st_size <= 0) {
        snprintf(err, errlen, "%s: cannot read it back", SYNTH_MEMORY_R1CS);
        return G16_ERR_IO;
    }
    size_t len = (size_t)st.st_size;
    void *buf = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (buf == MAP_FAILED) {
        snprintf(err, errlen, "%s: mmap: %s", SYNTH_MEMORY_R1CS, strerror(errno));
        return G16_ERR_NOMEM;
    }
    r1cs r;
    int rc = r1cs_parse(buf, len, SYNTH_MEMORY_R1CS, &r, err, errlen)
                 ? G16_ERR_FORMAT
                 : setup_write_zkey_r1cs(&r, SYNTH_MEMORY_R1CS, zkey_path, opt, err, errlen);
    munmap(buf, len);
    return rc;
}

g16_status g16_synth_setup(const g16_synth_params *p, const char *wtns_path, const char *zkey_path,
                           const g16_setup_options *opt, char *err, size_t errlen)
{
    synth_params sp;
    int fd, rc = synth_params_of(p, &sp, err, errlen);
    if (rc) return rc;
    if (synth_generate_memory(&sp, wtns_path, &fd, err, errlen)) return G16_ERR_IO;
    rc = setup_from_fd(fd, zkey_path, opt, err, errlen);
    close(fd);
    if (rc) unlink(wtns_path); /* both or neither */
    return rc;
}
