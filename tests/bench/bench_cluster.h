#pragma once
// A demo cluster loaded once per benchmark run: its state and the index of its own hierarchy.

#include "support/demo_loader.h"

namespace topodeck::bench {

using testing::LoadedDemo;
using testing::loadDemo;

} // namespace topodeck::bench
