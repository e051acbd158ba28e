#pragma once
// The demo generator reaching up into the index.
#include "core/topology/index.h"
