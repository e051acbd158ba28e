#pragma once
// A view reaching into the app and into net.
#include "app/gui/main_window.h"
#include "net/client.h"
#include "models/tree.h"
#include <QWidget>
namespace topodeck {
// The same name as models/tree.h's: one program, two definitions.
struct Node {
    long gpus = 0;
};
} // namespace topodeck
