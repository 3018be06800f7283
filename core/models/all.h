/* Every cell model's equations, for core/engine/instances.h (no include guard: it is
 * included once per precision). To add a model: include its header here, add
 * it to CARDIAC_MODELS in core/models/list.h and write its metadata file. */
#include "karma.h"
#include "aliev_panfilov.h"
#include "mitchell_schaeffer.h"
#include "bueno_orovio.h"
#include "tentusscher_2006.h"   /* before ORd, whose INa variant uses its INa kinetics */
#include "ohara_rudy.h"
#include "fenton_karma.h"
#include "gaur_rudy.h"
