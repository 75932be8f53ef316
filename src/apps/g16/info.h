/* g16 info: print the header of a .zkey, .wtns or .r1cs file. */
#ifndef G16_CLI_INFO_H
#define G16_CLI_INFO_H

/* argv[0] is "info"; the rest are options and file names.  Returns the
 * process exit status (0 if every file was read). */
int cli_info(int argc, char **argv);

#endif
