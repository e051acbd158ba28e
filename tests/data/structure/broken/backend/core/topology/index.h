#pragma once
// The index reaching up into change plans; readers are below it.
#include "core/formats/reader.h"
#include "core/changes/plan.h"
