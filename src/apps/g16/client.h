/* `g16 client`: the command-line client of g16d (src/daemon). */
#ifndef G16_CLI_CLIENT_H
#define G16_CLI_CLIENT_H

int cli_client(int argc, char **argv);

#endif
