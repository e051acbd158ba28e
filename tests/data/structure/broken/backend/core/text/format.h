#pragma once
// Text reaching up into the model.
#include "core/model/node.h"
