#pragma once
// The app may include every layer.
#include "net/client.h"
#include "views/map.h"
#include "app/gui/other.h"
namespace {
// An anonymous namespace's class is its file's own: no clash.
struct Node {
    int gpus = 0;
};
} // namespace
