#pragma once
// Placement reaching up into the use-cases.
#include "core/placement/engines/engine.h"
#include "usecases/plan.h"
