#pragma once
// Core's own top reaching into a folder: result.h is below everything.
#include "core/text/format.h"
