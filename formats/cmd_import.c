/* placeholder: replaced by the importers work */
#include <stdio.h>
#include "formats/reel.h"
int cmd_import(int argc, char **argv)
{
	fprintf(stderr, "ioreel import: not built yet\n");
	return 2;
}
