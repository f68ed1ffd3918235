/* placeholder: replaced by the formats core work */
#include <stdio.h>
#include "formats/reel.h"
int cmd_info(int argc, char **argv)
{
	fprintf(stderr, "ioreel info: not built yet\n");
	return 2;
}
