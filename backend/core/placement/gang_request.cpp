#include "core/placement/gang_request.h"

namespace topodeck {

bool Toleration::tolerates(const Taint& taint) const {
    if (!effect.empty() && effect != taint.effect) return false;
    if (op == "Exists") return key.empty() || key == taint.key;
    return key == taint.key && value == taint.value;
}

} // namespace topodeck
