/* The `g16 wtns calculate` and `g16 fullprove` subcommands (witnesses
 * from circom inputs, through include/g16_witness.h). */
#ifndef G16_CLI_WTNS_H
#define G16_CLI_WTNS_H

int cli_wtns(int argc, char **argv);
int cli_fullprove(int argc, char **argv);
/* $XDG_CACHE_HOME/g16, else ~/.cache/g16 (malloc'd), or NULL without either. */
char *cli_cache_dir_default(void);

#endif
