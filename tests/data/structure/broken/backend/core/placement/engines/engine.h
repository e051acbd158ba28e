#pragma once
// An engine reading a report (the engines are below them).
#include "core/model/model.h"
#include "core/placement/reports/report.h"
#include "core/placement/requests/request.h"
