"""A stand-in NetworkManager on a private D-Bus bus, for the real `nmcli` to talk to.

Run by the system Python (Debian's python3-gi):
`network_manager_standin.py BUS_ADDRESS LOG --version X.Y.Z [--radio SSID,...]`. It owns
org.freedesktop.NetworkManager on the bus at BUS_ADDRESS and answers what `nmcli` (libnm) asks:
the object tree (GetManagedObjects), connection profiles that can be added, read (secrets only
through GetSecrets, as NetworkManager keeps them), changed and deleted, and their activation.
It gives the version of the `nmcli` that talks to it (a newer `nmcli` warns on every command
when the two differ). Without `--radio` there is no Wi-Fi device and an activation fails as
NetworkManager's own does ("No suitable device found for this connection"). With it, an
access point starts, and so does a network whose SSID is one of those listed (in range). A
network out of range fails at once, the same way: NetworkManager would take the activation
and fail it later (the network not found), which `nmcli --wait` reports as a failure too. An
active connection can be taken down, and goes when its profile is deleted. There are no device,
access point or address objects. With `--trying SSID` the stand-in starts with a home network
of that name that it is still trying to join (activating, as with a changed password or a
router giving no address), as NetworkManager is at boot. Every call that changes something is written to LOG as one
JSON line: the method, the profile's object path and, for an add or a change, its settings in
plain JSON (byte strings as text). Prints "ready" once the name is owned.
"""

from __future__ import annotations

import argparse
import json
import sys

from gi.repository import Gio, GLib

NM = "org.freedesktop.NetworkManager"
NM_PATH = "/org/freedesktop/NetworkManager"
SETTINGS_PATH = NM_PATH + "/Settings"
SETTINGS = NM + ".Settings"
CONNECTION = SETTINGS + ".Connection"
ACTIVE = NM + ".Connection.Active"
ACTIVE_PATH = NM_PATH + "/ActiveConnection"
OBJECT_MANAGER = "org.freedesktop.DBus.ObjectManager"
PROPERTIES = "org.freedesktop.DBus.Properties"
NO_DEVICE = "No suitable device found for this connection"
SECRETS = ("psk", "wep-key0", "leap-password", "password")

INTROSPECTION = f"""<node>
 <interface name="{OBJECT_MANAGER}">
  <method name="GetManagedObjects"><arg type="a{{oa{{sa{{sv}}}}}}" direction="out"/></method>
 </interface>
 <interface name="{NM}">
  <method name="ActivateConnection">
   <arg type="o" direction="in"/><arg type="o" direction="in"/><arg type="o" direction="in"/>
   <arg type="o" direction="out"/>
  </method>
  <method name="DeactivateConnection"><arg type="o" direction="in"/></method>
  <method name="GetPermissions"><arg type="a{{ss}}" direction="out"/></method>
 </interface>
 <interface name="{ACTIVE}"/>
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
    """The stand-in's profiles and active connections, its D-Bus objects and their calls."""

    def __init__(self, bus: Gio.DBusConnection, log_path: str, version: str,
                 in_range: list[str] | None):
        self.bus, self.log_path, self.version = bus, log_path, version
        self.in_range = in_range                        # None: no radio at all
        self.profiles: dict[str, GLib.Variant] = {}    # object path -> a{sa{sv}} settings
        self.active: dict[str, str] = {}               # active connection -> its profile
        self.states: dict[str, int] = {}               # active connection -> its State
        self.registrations: dict[str, int] = {}
        self.numbers = {SETTINGS_PATH: 1, ACTIVE_PATH: 1}     # the next object of each kind

    def log(self, method: str, path: str, settings: GLib.Variant | None = None) -> None:
        entry = {"method": method, "path": path}
        if settings is not None:
            entry["settings"] = plain(settings.unpack())
        with open(self.log_path, "a", encoding="utf-8") as out:
            out.write(json.dumps(entry) + "\n")

    # -- the object tree ---------------------------------------------------------------

    def manager_properties(self) -> dict[str, GLib.Variant]:
        v = GLib.Variant
        return {"Version": v("s", self.version), "State": v("u", 20), "Startup": v("b", False),
                "Devices": v("ao", []), "AllDevices": v("ao", []),
                "ActiveConnections": v("ao", sorted(self.active)),
                "NetworkingEnabled": v("b", True),
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

    def active_properties(self, profile: str, state: int = 2) -> dict[str, GLib.Variant]:
        v, settings = GLib.Variant, self.profiles[profile].unpack()["connection"]
        return {"Connection": v("o", profile), "SpecificObject": v("o", "/"),
                "Id": v("s", settings["id"]), "Uuid": v("s", settings["uuid"]),
                "Type": v("s", settings["type"]), "Devices": v("ao", []),
                "State": v("u", state), "StateFlags": v("u", 0), "Default": v("b", False),
                "Default6": v("b", False), "Vpn": v("b", False), "Ip4Config": v("o", "/"),
                "Ip6Config": v("o", "/"), "Dhcp4Config": v("o", "/"),
                "Dhcp6Config": v("o", "/"), "Master": v("o", "/")}  # 1 activating, 2 activated

    def objects(self) -> dict:
        tree = {NM_PATH: {NM: self.manager_properties()},
                SETTINGS_PATH: {SETTINGS: self.settings_properties()}}
        for path in self.profiles:
            tree[path] = {CONNECTION: self.connection_properties()}
        for path, profile in self.active.items():
            tree[path] = {ACTIVE: self.active_properties(profile, self.states[path])}
        return tree

    def register(self) -> None:
        self.bus.register_object("/org/freedesktop", INTERFACES[OBJECT_MANAGER], self.call,
                                 None, None)
        self.bus.register_object(NM_PATH, INTERFACES[NM], self.call, None, None)
        self.bus.register_object(SETTINGS_PATH, INTERFACES[SETTINGS], self.call, None, None)

    def emit(self, path: str, interface: str, signal: str, args: GLib.Variant) -> None:
        self.bus.emit_signal(None, path, interface, signal, args)

    def active_changed(self) -> None:
        self.emit(NM_PATH, PROPERTIES, "PropertiesChanged", GLib.Variant(
            "(sa{sv}as)", (NM, {"ActiveConnections": GLib.Variant("ao", sorted(self.active))},
                           [])))

    def connections_changed(self) -> None:
        self.emit(SETTINGS_PATH, PROPERTIES, "PropertiesChanged", GLib.Variant(
            "(sa{sv}as)", (SETTINGS, {"Connections": self.settings_properties()["Connections"]},
                           [])))

    def new_path(self, kind: str) -> str:
        self.numbers[kind] += 1
        return f"{kind}/{self.numbers[kind] - 1}"

    def add(self, settings: GLib.Variant) -> str:
        path = self.new_path(SETTINGS_PATH)
        self.profiles[path] = settings
        self.registrations[path] = self.bus.register_object(
            path, INTERFACES[CONNECTION], self.call, None, None)
        self.emit("/org/freedesktop", OBJECT_MANAGER, "InterfacesAdded", GLib.Variant(
            "(oa{sa{sv}})", (path, {CONNECTION: self.connection_properties()})))
        self.connections_changed()
        self.emit(SETTINGS_PATH, SETTINGS, "NewConnection", GLib.Variant("(o)", (path,)))
        self.log("AddConnection", path, settings)
        return path

    def trying(self, ssid: str) -> None:
        """A known home network NetworkManager is still trying to join (not logged: it was
        there before the box)."""
        v = GLib.Variant
        path = self.new_path(SETTINGS_PATH)
        self.profiles[path] = v("a{sa{sv}}", {
            "connection": {"id": v("s", ssid), "uuid": v("s", "0b5e7e1c-0000-4000-8000-000000000001"),
                           "type": v("s", "802-11-wireless")},
            "802-11-wireless": {"ssid": v("ay", ssid.encode()), "mode": v("s", "infrastructure")}})
        self.registrations[path] = self.bus.register_object(
            path, INTERFACES[CONNECTION], self.call, None, None)
        self.activate(path, state=1)

    def settings(self, path: str, secret: bool) -> dict:
        """A profile's settings without its secrets (GetSettings), or only its secrets
        (GetSecrets): {setting: {key: its variant}}."""
        profile, out = self.profiles[path], {}
        for name, values in profile.unpack().items():
            setting = profile.lookup_value(name, None)
            kept = {key: setting.lookup_value(key, None) for key in values
                    if (key in SECRETS) == secret}
            if kept or not secret:
                out[name] = kept
        return out

    def starts(self, profile: str) -> bool:
        """Whether `profile` comes up: only with a radio, as an access point or on a network
        in range."""
        wifi = self.profiles[profile].unpack().get("802-11-wireless", {})
        ssid = bytes(wifi.get("ssid", b"")).decode("utf-8", "replace")
        return self.in_range is not None and (wifi.get("mode") == "ap" or ssid in self.in_range)

    def activate(self, profile: str, state: int = 2) -> str:
        path = self.new_path(ACTIVE_PATH)
        self.active[path], self.states[path] = profile, state
        self.registrations[path] = self.bus.register_object(
            path, INTERFACES[ACTIVE], self.call, None, None)
        self.emit("/org/freedesktop", OBJECT_MANAGER, "InterfacesAdded", GLib.Variant(
            "(oa{sa{sv}})", (path, {ACTIVE: self.active_properties(profile, state)})))
        self.active_changed()
        return path

    def deactivate(self, path: str) -> None:
        """Down, as NetworkManager takes it: the state deactivated (4, the user's doing: 2),
        then the object gone."""
        self.log("DeactivateConnection", self.active.pop(path))
        del self.states[path]
        self.emit(path, PROPERTIES, "PropertiesChanged", GLib.Variant(
            "(sa{sv}as)", (ACTIVE, {"State": GLib.Variant("u", 4)}, [])))
        self.emit(path, ACTIVE, "StateChanged", GLib.Variant("(uu)", (4, 2)))
        self.bus.unregister_object(self.registrations.pop(path))
        self.emit("/org/freedesktop", OBJECT_MANAGER, "InterfacesRemoved",
                  GLib.Variant("(oas)", (path, [ACTIVE])))
        self.active_changed()

    def delete(self, path: str) -> None:
        for active in [a for a, profile in self.active.items() if profile == path]:
            self.deactivate(active)
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
            invocation.return_value(GLib.Variant("(a{sa{sv}})", (self.settings(path, False),)))
        elif method == "GetSecrets":
            secrets = {args[0]: self.settings(path, True).get(args[0], {})}
            invocation.return_value(GLib.Variant("(a{sa{sv}})", (secrets,)))
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
            if self.starts(args[0]):
                invocation.return_value(GLib.Variant("(o)", (self.activate(args[0]),)))
            else:
                invocation.return_dbus_error(NM + ".UnknownDevice", NO_DEVICE)
        elif method == "DeactivateConnection":
            self.deactivate(args[0])
            invocation.return_value(None)
        else:
            invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("address")
    parser.add_argument("log")
    parser.add_argument("--version", required=True, help="the nmcli's version, X.Y.Z")
    parser.add_argument("--radio", help="a Wi-Fi radio, and the SSIDs in range (a,b,...)")
    parser.add_argument("--trying", help="a home network being joined, never joined")
    args = parser.parse_args()
    bus = Gio.DBusConnection.new_for_address_sync(
        args.address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
        | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
    stand_in = StandIn(bus, args.log, args.version,
                       None if args.radio is None else args.radio.split(","))
    stand_in.register()
    if args.trying:
        stand_in.trying(args.trying)

    def lost(*_) -> None:
        print(f"the name {NM} is taken", file=sys.stderr, flush=True)
        sys.exit(3)
    Gio.bus_own_name_on_connection(bus, NM, Gio.BusNameOwnerFlags.NONE,
                                   lambda *_: print("ready", flush=True), lost)
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
