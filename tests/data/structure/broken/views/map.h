#pragma once
// A view reaching into the app and into net.
#include "app/gui/main_window.h"
#include "net/client.h"
#include "models/tree.h"
#include <QWidget>
