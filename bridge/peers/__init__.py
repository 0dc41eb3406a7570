"""Other RaspberryJuice-protocol servers the bridge is tested against, set up from Python."""
