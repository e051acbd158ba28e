#pragma once
// The session reaching up into models, and into widgets.
#include "models/tree.h"
#include <QWidget>
#include <QObject>
#include "net/client.h"
