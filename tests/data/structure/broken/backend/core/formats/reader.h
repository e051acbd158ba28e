#pragma once
// A reader that needs the index; Slurm's readers are the same layer.
#include "core/slurm/topology.h"
#include "core/topology/index.h"
