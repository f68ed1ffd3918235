/* placeholder: replaced by the plots work */
#include <stdio.h>
#include "plots/plots.h"
int cmd_compare(int argc, char **argv)
{
	fprintf(stderr, "ioreel compare: not built yet\n");
	return 2;
}
