/* plots/plots.h - the plots module's one header. */
#ifndef IOREEL_PLOTS_H
#define IOREEL_PLOTS_H
#include "formats/reel.h"

int cmd_plot(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_demo(int argc, char **argv);

#endif
