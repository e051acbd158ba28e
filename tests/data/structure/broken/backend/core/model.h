#pragma once
// A model header that reaches up (placement, net) and into Qt.
#include "net/http_client.h"
#include "core/placement/engine.h"
#include <QString>
#include <vector>
#include "core/node.h"

// Thirteen lines, one over the limit the test sets.
struct Model {
    int value = 0;
};

