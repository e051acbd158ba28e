#pragma once
// net reaching up into the session.
#include "session/cluster_session.h"
#include "core/model.h"
