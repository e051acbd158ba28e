#pragma once
#include "core/model.h"
