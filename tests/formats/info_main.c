/* Stand-alone driver for cli_info, so `g16 info` is tested without the
 * full g16 binary. */
#include "info.h"

int main(int argc, char **argv)
{
    argv[0] = "info";
    return cli_info(argc, argv);
}
