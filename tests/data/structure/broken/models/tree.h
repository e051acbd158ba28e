#pragma once
// A model reaching into views, net and widgets; QtGui is fine.
#include "views/map.h"
#include "net/client.h"
#include <QLabel>
#include <QColor>
#include "session/worker.h"
namespace topodeck {
struct Node {
    int gpus = 0;
};
} // namespace topodeck
