// A quoted include beside the file is of the file's own layer; one that names nothing is wrong.
#include "model.h"
#include <string>
#include "missing.h"
