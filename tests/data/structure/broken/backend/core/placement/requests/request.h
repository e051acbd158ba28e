#pragma once
// A request reaching into an engine.
#include "core/placement/engines/engine.h"
