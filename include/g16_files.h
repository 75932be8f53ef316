/* g16_files.h: files: atomic writes, mapped and bounded reads, private directories, iden3 headers
 * (included by g16.h; see its head comment for the contract). */
#ifndef G16_PUBLIC_FILES_H
#define G16_PUBLIC_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "g16_status.h"

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

/* Writes data to path atomically (temporary file in the same directory,
 * then rename), so a reader never sees half a file. */
g16_status g16_write_file(const char *path, const void *data, size_t len, char *err,
                          size_t errlen) G16_MUST_USE G16_NONNULL(1);

/* ---- Files, verification, setup and synthetic circuits (the g16 command's
 * needs beyond proving).  Paths name the file in every message. ---- */

/* Input files are opened without blocking (a FIFO or device never stalls
 * a reader) and must be regular files: anything else fails with
 * "<path>: not a regular file" (G16_ERR_IO). */

/* Maps a file read-only (MAP_PRIVATE: a multi-GiB key is never copied).
 * An empty file gives *data NULL and *len 0.  G16_ERR_NOT_FOUND when the
 * path does not exist, G16_ERR_IO for any other failure. */
g16_status g16_file_map(const char *path, const uint8_t **data, size_t *len, char *err,
                        size_t errlen) G16_MUST_USE G16_NONNULL(1, 2, 3);
void g16_file_unmap(const uint8_t *data, size_t len);

/* Reads a whole file of at most max_len bytes (G16_ERR_TOO_LARGE beyond,
 * checked before reading) into pages of its own: an anonymous mapping
 * that no other allocation shares, so mlock of it locks nothing else.
 * Files from 64 MiB on are read by several threads.  A file that grows
 * or shrinks while it is read fails with G16_ERR_IO.  Free with
 * g16_file_release(*data, *len). */
g16_status g16_file_read(const char *path, size_t max_len, uint8_t **data, size_t *len, char *err,
                         size_t errlen) G16_MUST_USE G16_NONNULL(1, 3, 4);
void g16_file_release(uint8_t *data, size_t len);

/* Reads a whole file of at most max_len bytes as a NUL-terminated text
 * (malloc'd, caller frees).  G16_ERR_TOO_LARGE beyond max_len (checked
 * before reading), G16_ERR_FORMAT when it contains a NUL byte. */
g16_status g16_file_read_text(const char *path, size_t max_len, char **text, char *err,
                              size_t errlen) G16_MUST_USE G16_NONNULL(1, 3);

/* Makes sure dir (created 0700, parents too, when missing) can be changed
 * by no one but this user and root, as a directory that code is loaded
 * from or secrets are kept in must be: its real path (symbolic links
 * resolved) and every ancestor are directories owned by the effective
 * user or root and writable by neither group nor others, but for a sticky
 * ancestor (/tmp) whose component below is the user's or root's.  The
 * real path goes to real (real_cap bytes; may be NULL): use it from then
 * on, since a link on the way may change.  G16_ERR_ARG with one line
 * naming dir, the component at fault, its owner and mode and the fix;
 * G16_ERR_IO when it cannot be created or resolved. */
g16_status g16_dir_private(const char *dir, char *real, size_t real_cap, char *err,
                           size_t errlen) G16_MUST_USE;

/* What the header of an iden3 binary file (.zkey, .wtns, .r1cs) says. */
#define G16_FILE_MAX_SECTIONS 64
typedef struct {
    uint32_t id;
    uint64_t offset, size; /* of the section body, from the file's start */
    const char *name;      /* "H points", ...; "" when unknown */
} g16_file_section;

typedef struct {
    char type[5]; /* "zkey", "wtns" or "r1cs"; "" if unreadable */
    uint32_t version;
    uint32_t n_sections;
    g16_file_section sections[G16_FILE_MAX_SECTIONS];
    uint32_t protocol; /* zkey: the protocol id in section 1 (1: Groth16) */
    const char *protocol_name;
    int typed;         /* 1 when the fields below were read */
    const char *curve; /* "bn128", "bls12381" or "unknown" */
    uint32_t n8q, n8r; /* zkey: field element bytes */
    uint32_t n_vars, n_public, domain_size, log2_domain, n_coefs;   /* zkey */
    uint32_t n8, n_witness;                                         /* wtns (n8 also r1cs) */
    uint32_t n_wires, n_constraints, n_pub_out, n_pub_in, n_prv_in; /* r1cs */
    uint64_t n_labels;
    int custom_gates; /* r1cs: uses PLONK custom gates */
} g16_file_info;

/* Reads path's header, section table and type-specific sizes, validating
 * the whole file.  On failure the message says why; info->type is set
 * once the container was read and info->typed once the sizes were, so a
 * caller can show what was read before the damage.  G16_ERR_NOT_FOUND,
 * G16_ERR_IO (unreadable) or G16_ERR_FORMAT (damaged, or not one of the
 * three types). */
g16_status g16_file_info_read(const char *path, g16_file_info *info, char *err,
                              size_t errlen) G16_MUST_USE G16_NONNULL(1, 2);

/* An output file that appears whole or not at all: written to a temporary
 * file "<path>.tmp.<pid>.<n>" in the same directory, then renamed over
 * path by g16_output_commit.  g16_output_free removes the temporary file
 * if it was not committed.  A program that removes temporary files on a
 * signal learns their names from g16_output_temp_path. */
typedef struct g16_output g16_output;
g16_status g16_output_open(const char *path, g16_output **out, char *err,
                           size_t errlen) G16_MUST_USE G16_NONNULL(1, 2);
const char *g16_output_temp_path(const g16_output *f);
g16_status g16_output_write(g16_output *f, const void *data, size_t len, char *err,
                            size_t errlen) G16_MUST_USE G16_NONNULL(1);
g16_status g16_output_commit(g16_output *f, char *err, size_t errlen) G16_MUST_USE G16_NONNULL(1);
void g16_output_free(g16_output *f);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif
