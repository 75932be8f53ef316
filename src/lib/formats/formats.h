/*
 * formats.h: readers and writers for the iden3 binary files g16 consumes
 * (snarkjs .zkey, circom .wtns and .r1cs).
 *
 * CONTRACT
 *  - Every iden3 binary file is: magic (4 bytes: "zkey", "wtns", "r1cs"),
 *    version (u32), nSections (u32), then nSections sections, each
 *    u32 id, u64 size, then `size` bytes.  Sections may appear in any order.
 *    All integers are little-endian.  Nothing may follow the last section.
 *  - Every reader works on a memory buffer:
 *        int X_parse(const uint8_t *buf, size_t len, const char *name,
 *                    X *out, char *err, size_t errlen);
 *    and has a path variant X_open(path, X *, err, errlen) that mmaps the
 *    file read-only (MAP_PRIVATE) -- a multi-GiB proving key is never
 *    copied -- plus X_close(X *), which is safe on a zeroed or failed X.
 *  - Results point INTO the buffer (no copies).  The buffer must outlive
 *    the result.  Pointers are NOT aligned: read integers with
 *    formats_u32le()/formats_u64le() (or memcpy), never by casting.
 *  - On error a reader returns nonzero and writes one line
 *    "<name>: <problem>" into err (name is the path for X_open; NULL name
 *    means "input").  On success it returns 0.  X_open's nonzero value is
 *    a g16_status (NOT_FOUND, IO, NOMEM for the file, FORMAT for its
 *    contents), so the library's entry points can pass it on.
 *  - Every size is checked against the buffer with overflow-checked
 *    arithmetic (readers are fuzzed) and against the header: a section's
 *    size must equal exactly what the header implies.  The data that
 *    cannot be checked cheaply (curve points) is not checked here.
 *  - Field elements are little-endian, n8 bytes.  In a .zkey, points are
 *    in Montgomery form and section-4 coefficients are c*R^2 mod r; in
 *    .wtns and .r1cs values are plain.
 */
#ifndef G16_FORMATS_H
#define G16_FORMATS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Little-endian helpers (buffers are unaligned).                       */

static inline uint32_t formats_u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t formats_u64le(const uint8_t *p)
{
    return (uint64_t)formats_u32le(p) | (uint64_t)formats_u32le(p + 4) << 32;
}

/* ------------------------------------------------------------------ */
/* Curves and their moduli.                                             */

typedef enum {
    FORMATS_CURVE_UNKNOWN = 0,
    FORMATS_CURVE_BN128,    /* BN254, snarkjs name "bn128" */
    FORMATS_CURVE_BLS12381, /* snarkjs name "bls12381" */
} formats_curve;

typedef enum {
    FORMATS_FIELD_UNKNOWN = 0,
    FORMATS_FIELD_BN128_FR,
    FORMATS_FIELD_BN128_FQ,
    FORMATS_FIELD_BLS12381_FR,
    FORMATS_FIELD_BLS12381_FQ,
} formats_field;

/* Which of the four known moduli p (n8 bytes, little-endian) is. */
formats_field formats_field_of_prime(const uint8_t *p, uint32_t n8);
/* The curve p belongs to (as its scalar field r or its base field q). */
formats_curve formats_curve_of_prime(const uint8_t *p, uint32_t n8);
/* "bn128", "bls12381" or "unknown". */
const char *formats_curve_name(formats_curve c);
/* The modulus bytes (little-endian) of a known field, *n8 set; NULL if
 * unknown. */
const uint8_t *formats_field_modulus(formats_field f, uint32_t *n8);
formats_field formats_scalar_field(formats_curve c);
formats_field formats_base_field(formats_curve c);
/* 1 if the n8-byte little-endian a < b. */
int formats_lt(const uint8_t *a, const uint8_t *b, uint32_t n8);

/* ------------------------------------------------------------------ */
/* Generic iden3 binary container.                                      */

#define BINFILE_MAX_SECTIONS 64

typedef struct {
    uint32_t id;
    uint64_t offset; /* of the section body, from the start of the file */
    uint64_t size;
} binfile_section;

typedef struct {
    const uint8_t *buf;
    size_t len;
    char magic[5]; /* NUL-terminated copy of the 4 magic bytes */
    uint32_t version;
    uint32_t n_sections;
    binfile_section sections[BINFILE_MAX_SECTIONS];
} binfile;

/* Parses the container.  If magic is non-NULL the file must carry it
 * ("<name>: not a zkey file (bad magic)") and its version must be in
 * 1..max_version.  Checks every section lies inside the buffer and that
 * no bytes follow the last one. */
int binfile_parse(const uint8_t *buf, size_t len, const char *name, const char *magic,
                  uint32_t max_version, binfile *out, char *err, size_t errlen);

/* The section with this id, or NULL (first one if duplicated). */
const binfile_section *binfile_find(const binfile *bf, uint32_t id);

/* Required, unique section: sets *body and *size or reports
 * "missing section N (what)" / "duplicate section N (what)". */
int binfile_section_body(const binfile *bf, uint32_t id, const char *what, const char *name,
                         const uint8_t **body, uint64_t *size, char *err, size_t errlen);

/* ------------------------------------------------------------------ */
/* Read-only file mapping.                                              */

typedef struct {
    void *addr; /* NULL for an empty file */
    size_t len;
} formats_mapping;

/* mmap(PROT_READ, MAP_PRIVATE) a regular file.  Errors: "<path>:
 * <strerror>" or "<path>: not a regular file", errno set. */
int formats_map_file(const char *path, formats_mapping *m, char *err, size_t errlen);
void formats_unmap_file(formats_mapping *m);
/* The whole regular file at path (at most max_len bytes) read into a
 * malloc'd buffer of its size + 1 (free it): for a small file looked at
 * once, where undoing a mapping costs more than the read (munmap flushes
 * the TLB of every core the process last ran on).  G16_OK, or a
 * g16_status (G16_ERR_TOO_LARGE above max_len) with "<path>: <problem>",
 * errno as formats_map_file leaves it when the file did not open. */
int formats_read_file(const char *path, size_t max_len, uint8_t **data, size_t *len, char *err,
                      size_t errlen);

/* ------------------------------------------------------------------ */
/* .zkey (snarkjs proving key).  Only Groth16 keys parse; PLONK and     */
/* FFLONK keys are refused with a clear message.                         */

enum {
    ZKEY_PROTOCOL_GROTH16 = 1,
    ZKEY_PROTOCOL_PLONK = 2,
    ZKEY_PROTOCOL_FFLONK = 10,
};

typedef struct {
    uint32_t protocol; /* ZKEY_PROTOCOL_GROTH16 */
    formats_curve curve;
    uint32_t n8q;         /* base field element bytes (32 or 48) */
    const uint8_t *q;     /* base field modulus */
    uint32_t n8r;         /* scalar field element bytes (32) */
    const uint8_t *r;     /* scalar field modulus */
    uint32_t n_vars;      /* signals, including the constant 1 */
    uint32_t n_public;    /* public signals, excluding the constant 1 */
    uint32_t domain_size; /* power of two */
    uint32_t log2_domain;
    /* Verification-key points, Montgomery form: G1 = x,y (2*n8q bytes),
     * G2 = x.c0,x.c1,y.c0,y.c1 (4*n8q bytes). */
    const uint8_t *alpha1, *beta1, *beta2, *gamma2, *delta1, *delta2;
    const uint8_t *ic; /* n_public+1 G1 points */
    uint32_t n_coefs;
    const uint8_t *coefs;     /* n_coefs entries of ZKEY_COEF_SIZE(n8r) bytes */
    const uint8_t *a_points;  /* n_vars G1 */
    const uint8_t *b1_points; /* n_vars G1 */
    const uint8_t *b2_points; /* n_vars G2 */
    const uint8_t *c_points;  /* n_vars-n_public-1 G1 (private signals) */
    const uint8_t *h_points;  /* domain_size G1 */
    binfile file;             /* section table */
    formats_mapping map;      /* set by zkey_open */
} zkey;

/* One coefficient entry: u32 matrix (0 = A, 1 = B), u32 constraint,
 * u32 signal, then the value c*R^2 mod r (n8r bytes). */
#define ZKEY_COEF_SIZE(n8r) (12u + (uint32_t)(n8r))

typedef struct {
    uint32_t matrix, constraint, signal;
    const uint8_t *value;
} zkey_coef;

static inline zkey_coef zkey_coef_at(const zkey *z, uint32_t i)
{
    const uint8_t *e = z->coefs + (size_t)i * ZKEY_COEF_SIZE(z->n8r);
    zkey_coef c = {formats_u32le(e), formats_u32le(e + 4), formats_u32le(e + 8), e + 12};
    return c;
}

int zkey_parse(const uint8_t *buf, size_t len, const char *name, zkey *out, char *err,
               size_t errlen);
int zkey_open(const char *path, zkey *out, char *err, size_t errlen);
void zkey_close(zkey *z);
const char *zkey_protocol_name(uint32_t protocol);

/* ------------------------------------------------------------------ */
/* .wtns (circom witness).                                              */

typedef struct {
    uint32_t version;
    uint32_t n8;
    const uint8_t *prime; /* the scalar field modulus r */
    formats_curve curve;  /* of prime; FORMATS_CURVE_UNKNOWN is allowed */
    uint32_t n_witness;
    const uint8_t *values; /* n_witness values of n8 bytes, each < prime */
    binfile file;
    formats_mapping map;
} wtns;

int wtns_parse(const uint8_t *buf, size_t len, const char *name, wtns *out, char *err,
               size_t errlen);
int wtns_open(const char *path, wtns *out, char *err, size_t errlen);
void wtns_close(wtns *w);

/* Writes a version-2 .wtns atomically.  values: n * n8 bytes, plain form. */
int wtns_write(const char *path, uint32_t n8, const uint8_t *prime, uint32_t n,
               const uint8_t *values, char *err, size_t errlen);

/* ------------------------------------------------------------------ */
/* .r1cs (circom constraint system).                                    */

typedef struct {
    uint32_t version;
    uint32_t n8;
    const uint8_t *prime;
    formats_curve curve; /* of prime; unknown allowed */
    uint32_t n_wires;    /* including the constant 1 */
    uint32_t n_pub_out, n_pub_in, n_prv_in;
    uint64_t n_labels;
    uint32_t n_constraints;
    const uint8_t *constraints; /* start of section 2 */
    uint64_t size;              /* its size in bytes */
    const uint8_t *wire_labels; /* section 3: n_wires u64, or NULL */
    int uses_custom_gates;      /* sections 4 and 5 present (PLONK-only
                                   circuits; not validated here) */
    binfile file;
    formats_mapping map;
} r1cs;

int r1cs_parse(const uint8_t *buf, size_t len, const char *name, r1cs *out, char *err,
               size_t errlen);
int r1cs_open(const char *path, r1cs *out, char *err, size_t errlen);
void r1cs_close(r1cs *r);

/* A linear combination: n_terms entries of (u32 wire, n8-byte value). */
typedef struct {
    uint32_t n_terms;
    const uint8_t *terms;
} r1cs_lc;

#define R1CS_TERM_SIZE(n8) (4u + (uint32_t)(n8))

static inline uint32_t r1cs_term_wire(const r1cs *r, const r1cs_lc *lc, uint32_t i)
{
    return formats_u32le(lc->terms + (size_t)i * R1CS_TERM_SIZE(r->n8));
}

static inline const uint8_t *r1cs_term_value(const r1cs *r, const r1cs_lc *lc, uint32_t i)
{
    return lc->terms + (size_t)i * R1CS_TERM_SIZE(r->n8) + 4;
}

/* Walks the constraints in order.  Each is A, B, C (A*B = C). */
typedef struct {
    const r1cs *r;
    uint64_t pos;   /* byte offset in the constraints section */
    uint32_t index; /* constraints returned so far */
} r1cs_iter;

void r1cs_iter_init(r1cs_iter *it, const r1cs *r);
/* 1: lc[0..2] filled; 0: no more constraints; -1: malformed data (only
 * possible if the r1cs was not produced by r1cs_parse). */
int r1cs_iter_next(r1cs_iter *it, r1cs_lc lc[3]);

/* What r1cs_write needs: the header numbers and the serialized
 * constraints section (n_constraints constraints in the file's layout). */
typedef struct {
    uint32_t n8;
    const uint8_t *prime;
    uint32_t n_wires, n_pub_out, n_pub_in, n_prv_in;
    uint64_t n_labels;
    uint32_t n_constraints;
    const uint8_t *constraints;
    uint64_t size;
} r1cs_desc;

/* Writes a version-1 .r1cs atomically, with sections 1, 2 and an identity
 * wire-to-label map (section 3).  Checks the constraints first. */
int r1cs_write(const char *path, const r1cs_desc *d, char *err, size_t errlen);

/* ------------------------------------------------------------------ */
/* Atomic output files.                                                 */

/* Writes to "<path>.tmp.<pid>.<n>" in the same directory, fsyncs, renames
 * over path.  On failure the temporary file is removed and err says
 * "<path>: <strerror>". */
int atomic_write_file(const char *path, const void *data, size_t len, char *err, size_t errlen);

/* The same, streamed: open, write any number of times, then commit (or
 * abort to give up).  Writes start the writeback of each 4 MiB as it is
 * written, so commit's fsync waits for the last piece only.  A failed write or commit removes the temporary file
 * itself; abort is idempotent, so calling it after a failure is harmless. */
typedef struct {
    int fd;
    char *path;
    char *tmp_path;
    uint64_t written, flushed; /* bytes written; those whose writeback was started */
} atomic_file;

int atomic_file_open(atomic_file *f, const char *path, char *err, size_t errlen);
int atomic_file_write(atomic_file *f, const void *data, size_t len, char *err, size_t errlen);
int atomic_file_commit(atomic_file *f, char *err, size_t errlen);
/* atomic_file_write for a large buffer whose address and offset in the
 * file are 4096-aligned (else it is atomic_file_write): the aligned bulk
 * goes from data to the disk with O_DIRECT, the rest through the page
 * cache.  No copy of the bulk into the page cache (a 2^20 witness's 33 MB
 * took 7-25 ms to copy, and its fsync 15-22 ms more, where the direct
 * write takes 15-20 ms in all: docs/witness-graph.md); a file system that
 * refuses O_DIRECT gets a buffered write. */
int atomic_file_write_direct(atomic_file *f, const void *data, size_t len, char *err,
                             size_t errlen);
void atomic_file_abort(atomic_file *f);

#ifdef __cplusplus
}
#endif

#endif
