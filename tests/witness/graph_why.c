/* witness_graph_why CIRCUIT.wasm INPUT.json CACHE_DIR: calculates INPUT
 * once (by the wasm when CACHE_DIR holds no graph, which then makes one)
 * and prints whether the circuit has a witness graph afterwards, and if
 * not why ("no graph: WHY").  Why a trace refused is known only to the
 * process that tried it: `g16 wtns calculate --verbose` says only how
 * its own calculation ran and `g16 info` "no graph yet", so
 * circomlib.sh asks this for the circuits that never take the graph. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g16_files.h"
#include "g16_witness.h"

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: witness_graph_why CIRCUIT.wasm INPUT.json CACHE_DIR\n");
        return 2;
    }
    char err[1024];
    char *input = NULL;
    g16_circuit *c = NULL;
    uint8_t *wtns = NULL;
    size_t wlen;
    int rc = g16_file_read_text(argv[2], (size_t)64 << 20, &input, err, sizeof err);
    if (!rc) rc = g16_circuit_open(argv[1], argv[3], &c, err, sizeof err);
    if (!rc)
        rc = g16_witness_calculate(c, input, strlen(input), argv[2], NULL, NULL, &wtns, &wlen, err,
                                   sizeof err);
    g16_circuit_graph_info g;
    if (!rc) rc = g16_circuit_graph(c, &g);
    if (rc)
        fprintf(stderr, "%s\n", err);
    else if (g.present)
        printf("graph\n");
    else
        printf("no graph: %s\n", g.why);
    g16_witness_free(wtns);
    g16_circuit_close(c);
    free(input);
    return rc ? 1 : 0;
}
