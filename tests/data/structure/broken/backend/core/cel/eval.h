#pragma once
// CEL reaching up into the model.
#include "core/model/node.h"
