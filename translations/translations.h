#pragma once

class QCoreApplication;

namespace topodeck {

// Installs the catalogues into the application: English plural forms always (the source strings
// say "(s)" where a count decides), then the system locale's catalogue when there is one. False
// when the English catalogue cannot be loaded (a broken build).
bool installTranslations(QCoreApplication& app);

} // namespace topodeck
