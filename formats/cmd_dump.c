/* placeholder: replaced by the formats core work */
#include <stdio.h>
#include "formats/reel.h"
int cmd_dump(int argc, char **argv)
{
	fprintf(stderr, "ioreel dump: not built yet\n");
	return 2;
}
