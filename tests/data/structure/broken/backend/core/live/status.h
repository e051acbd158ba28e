#pragma once
// A link status reaching into the model.
#include "core/model/node.h"
