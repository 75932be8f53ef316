/* drop_status: calls that break the public headers' contract, each in its
 * own block selected by -DCASE=n; embed.sh compiles every case with
 * -Werror and expects the compiler to refuse it (G16_MUST_USE,
 * G16_NONNULL), and CASE=0, which keeps the contract, to compile. */
#include <g16.h>
#include <g16_client.h>
#include <g16_memwatch.h>
#include <g16_witness.h>

int main(int argc, char **argv)
{
    char err[256];
    g16_key *key = NULL;
    (void)argc;
#if CASE == 0
    if (g16_key_open(argv[1], &key, err, sizeof err) != G16_OK) return 1;
    g16_key_free(key);
#elif CASE == 1 /* a status dropped */
    g16_key_open(argv[1], &key, err, sizeof err);
#elif CASE == 2 /* a verdict's status dropped */
    bool valid;
    g16_verify_json(argv[1], argv[2], argv[3], &valid, err, sizeof err);
#elif CASE == 3 /* NULL where the key goes out */
    if (g16_key_open(argv[1], NULL, err, sizeof err) != G16_OK) return 1;
#elif CASE == 4 /* the profiler's status dropped */
    mw_target *t;
    mw_open(NULL, 0, 0, &t, err, sizeof err);
#elif CASE == 5 /* the client's status dropped */
    g16_client_response r;
    g16_client_target target = {.port = 1};
    g16_client_request(&target, "GET", "/", NULL, 0, 1.0, &r, err, sizeof err);
#elif CASE == 6 /* the witness calculator's status dropped */
    g16_circuit *c;
    g16_circuit_open(argv[1], argv[2], &c, err, sizeof err);
#endif
    return 0;
}
