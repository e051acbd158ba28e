#pragma once
// Values reaching up into the model.
#include "core/model/node.h"
