/* placeholder: replaced by the plots work */
#include <stdio.h>
#include "plots/plots.h"
int cmd_plot(int argc, char **argv)
{
	fprintf(stderr, "ioreel plot: not built yet\n");
	return 2;
}
