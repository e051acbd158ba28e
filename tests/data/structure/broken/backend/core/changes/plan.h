#pragma once
// A change plan reaching into the demo; exports are the same layer.
#include "core/exports/files.h"
#include "core/demo/demo.h"
