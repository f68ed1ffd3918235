/* placeholder: replaced by the importers work */
#include <stdio.h>
#include "formats/reel.h"
int cmd_export(int argc, char **argv)
{
	fprintf(stderr, "ioreel export: not built yet\n");
	return 2;
}
