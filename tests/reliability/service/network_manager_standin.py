"""A stand-in NetworkManager on a private D-Bus bus, for the real `nmcli` to talk to.

Run by the system Python (Debian's python3-gi): `network_manager_standin.py BUS_ADDRESS LOG`.
It owns org.freedesktop.NetworkManager on the bus at BUS_ADDRESS and answers what `nmcli`
(libnm) asks of a NetworkManager with no Wi-Fi radio: the object tree (GetManagedObjects),
connection profiles that can be added, read, changed and deleted, and an activation that
fails as NetworkManager's own does with no device for it ("No suitable device found for this
connection"). Every call that changes something is written to LOG as one JSON line: the
method, the connection's object path and, for an add or a change, its settings in plain JSON
(byte strings as text). Prints "ready" once the name is owned.
"""

from __future__ import annotations

import json
import sys

from gi.repository import Gio, GLib

NM = "org.freedesktop.NetworkManager"
NM_PATH = "/org/freedesktop/NetworkManager"
SETTINGS_PATH = NM_PATH + "/Settings"
SETTINGS = NM + ".Settings"
CONNECTION = SETTINGS + ".Connection"
OBJECT_MANAGER = "org.freedesktop.DBus.ObjectManager"
PROPERTIES = "org.freedesktop.DBus.Properties"
NO_DEVICE = "No suitable device found for this connection"

INTROSPECTION = f"""<node>
 <interface name="{OBJECT_MANAGER}">
  <method name="GetManagedObjects"><arg type="a{{oa{{sa{{sv}}}}}}" direction="out"/></method>
 </interface>
 <interface name="{NM}">
  <method name="ActivateConnection">
   <arg type="o" direction="in"/><arg type="o" direction="in"/><arg type="o" direction="in"/>
   <arg type="o" direction="out"/>
  </method>
  <method name="GetPermissions"><arg type="a{{ss}}" direction="out"/></method>
 </interface>
 <interface name="{SETTINGS}">
  <method name="AddConnection">
   <arg type="a{{sa{{sv}}}}" direction="in"/><arg type="o" direction="out"/>
  </method>
  <method name="AddConnection2">
   <arg type="a{{sa{{sv}}}}" direction="in"/><arg type="u" direction="in"/>
   <arg type="a{{sv}}" direction="in"/><arg type="o" direction="out"/>
   <arg type="a{{sv}}" direction="out"/>
  </method>
 </interface>
 <interface name="{CONNECTION}">
  <method name="GetSettings"><arg type="a{{sa{{sv}}}}" direction="out"/></method>
  <method name="GetSecrets">
   <arg type="s" direction="in"/><arg type="a{{sa{{sv}}}}" direction="out"/>
  </method>
  <method name="Update"><arg type="a{{sa{{sv}}}}" direction="in"/></method>
  <method name="Update2">
   <arg type="a{{sa{{sv}}}}" direction="in"/><arg type="u" direction="in"/>
   <arg type="a{{sv}}" direction="in"/><arg type="a{{sv}}" direction="out"/>
  </method>
  <method name="Delete"/>
 </interface>
</node>"""
INTERFACES = {i.name: i for i in Gio.DBusNodeInfo.new_for_xml(INTROSPECTION).interfaces}


def plain(value):
    """A D-Bus value unpacked into JSON: byte arrays (an SSID) as text."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, int) and 0 <= v < 256 for v in value):
            return bytes(value).decode("utf-8", "replace")
        return [plain(v) for v in value]
    return value


class StandIn:
    def __init__(self, bus: Gio.DBusConnection, log_path: str):
        self.bus, self.log_path = bus, log_path
        self.profiles: dict[str, GLib.Variant] = {}    # object path -> a{sa{sv}} settings
        self.registrations: dict[str, int] = {}
        self.next_id = 1

    def log(self, method: str, path: str, settings: GLib.Variant | None = None) -> None:
        entry = {"method": method, "path": path}
        if settings is not None:
            entry["settings"] = plain(settings.unpack())
        with open(self.log_path, "a", encoding="utf-8") as out:
            out.write(json.dumps(entry) + "\n")

    # -- the object tree ---------------------------------------------------------------

    def manager_properties(self) -> dict[str, GLib.Variant]:
        v = GLib.Variant
        return {"Version": v("s", "1.42.4"), "State": v("u", 20), "Startup": v("b", False),
                "Devices": v("ao", []), "AllDevices": v("ao", []),
                "ActiveConnections": v("ao", []), "NetworkingEnabled": v("b", True),
                "WirelessEnabled": v("b", True), "WirelessHardwareEnabled": v("b", True),
                "Connectivity": v("u", 1), "Capabilities": v("au", []),
                "VersionInfo": v("au", [])}

    def settings_properties(self) -> dict[str, GLib.Variant]:
        return {"Connections": GLib.Variant("ao", sorted(self.profiles)),
                "Hostname": GLib.Variant("s", "parlour"), "CanModify": GLib.Variant("b", True)}

    @staticmethod
    def connection_properties() -> dict[str, GLib.Variant]:
        return {"Unsaved": GLib.Variant("b", False), "Flags": GLib.Variant("u", 0),
                "Filename": GLib.Variant("s", "")}

    def objects(self) -> dict:
        tree = {NM_PATH: {NM: self.manager_properties()},
                SETTINGS_PATH: {SETTINGS: self.settings_properties()}}
        for path in self.profiles:
            tree[path] = {CONNECTION: self.connection_properties()}
        return tree

    def register(self) -> None:
        self.bus.register_object("/org/freedesktop", INTERFACES[OBJECT_MANAGER], self.call,
                                 None, None)
        self.bus.register_object(NM_PATH, INTERFACES[NM], self.call, None, None)
        self.bus.register_object(SETTINGS_PATH, INTERFACES[SETTINGS], self.call, None, None)

    def emit(self, path: str, interface: str, signal: str, args: GLib.Variant) -> None:
        self.bus.emit_signal(None, path, interface, signal, args)

    def connections_changed(self) -> None:
        self.emit(SETTINGS_PATH, PROPERTIES, "PropertiesChanged", GLib.Variant(
            "(sa{sv}as)", (SETTINGS, {"Connections": self.settings_properties()["Connections"]},
                           [])))

    def add(self, settings: GLib.Variant) -> str:
        path = f"{SETTINGS_PATH}/{self.next_id}"
        self.next_id += 1
        self.profiles[path] = settings
        self.registrations[path] = self.bus.register_object(
            path, INTERFACES[CONNECTION], self.call, None, None)
        self.emit("/org/freedesktop", OBJECT_MANAGER, "InterfacesAdded", GLib.Variant(
            "(oa{sa{sv}})", (path, {CONNECTION: self.connection_properties()})))
        self.connections_changed()
        self.emit(SETTINGS_PATH, SETTINGS, "NewConnection", GLib.Variant("(o)", (path,)))
        self.log("AddConnection", path, settings)
        return path

    def delete(self, path: str) -> None:
        del self.profiles[path]
        self.bus.unregister_object(self.registrations.pop(path))
        self.emit(path, CONNECTION, "Removed", GLib.Variant("()", ()))
        self.emit("/org/freedesktop", OBJECT_MANAGER, "InterfacesRemoved",
                  GLib.Variant("(oas)", (path, [CONNECTION])))
        self.connections_changed()
        self.emit(SETTINGS_PATH, SETTINGS, "ConnectionRemoved", GLib.Variant("(o)", (path,)))
        self.log("Delete", path)

    # -- the calls ---------------------------------------------------------------------

    def call(self, bus, sender, path, interface, method, params, invocation) -> None:
        args = params.unpack() if params is not None else ()
        if method == "GetManagedObjects":
            invocation.return_value(GLib.Variant("(a{oa{sa{sv}}})", (self.objects(),)))
        elif method == "GetPermissions":
            invocation.return_value(GLib.Variant("(a{ss})", ({},)))
        elif method == "AddConnection":
            invocation.return_value(GLib.Variant("(o)", (self.add(params.get_child_value(0)),)))
        elif method == "AddConnection2":
            new = self.add(params.get_child_value(0))
            invocation.return_value(GLib.Variant("(oa{sv})", (new, {})))
        elif method == "GetSettings":
            invocation.return_value(GLib.Variant.new_tuple(self.profiles[path]))
        elif method == "GetSecrets":
            invocation.return_value(GLib.Variant("(a{sa{sv}})", ({},)))
        elif method in ("Update", "Update2"):
            self.profiles[path] = params.get_child_value(0)
            self.log("Update", path, self.profiles[path])
            self.emit(path, CONNECTION, "Updated", GLib.Variant("()", ()))
            invocation.return_value(GLib.Variant("(a{sv})", ({},)) if method == "Update2"
                                    else None)
        elif method == "Delete":
            self.delete(path)
            invocation.return_value(None)
        elif method == "ActivateConnection":
            self.log("ActivateConnection", args[0])
            invocation.return_dbus_error(NM + ".Error.UnknownDevice", NO_DEVICE)
        else:
            invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)


def main() -> None:
    address, log_path = sys.argv[1], sys.argv[2]
    bus = Gio.DBusConnection.new_for_address_sync(
        address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
        | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
    stand_in = StandIn(bus, log_path)
    stand_in.register()
    Gio.bus_own_name_on_connection(bus, NM, Gio.BusNameOwnerFlags.NONE,
                                   lambda *_: print("ready", flush=True), None)
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
