#pragma once
// The app may include every layer.
#include "net/client.h"
#include "views/map.h"
#include "app/gui/other.h"
