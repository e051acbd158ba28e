#pragma once
// A use-case reaching into the session and into Qt.
#include "core/placement/reports/report.h"
#include "session/cluster_session.h"
#include <QString>
