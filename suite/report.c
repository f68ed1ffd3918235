#include "suite/suite.h"
int suite_report_write(const struct suite_opts *o, const struct suite_results *res,
		       const struct suite_verdicts *v, const struct suite_chart *charts,
		       size_t ncharts, char *errmsg, size_t errlen) { return 0; }
