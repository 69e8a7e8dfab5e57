/* ksum is header-only (inlined on hot paths); this unit keeps the library
 * non-empty and checks the header compiles on its own. */
#include "stats/sum.h"
