# estimate kind: torchvision v2 ToImage + ToDtype, Resize to a pair, CenterCrop; PILToTensor (uint8)
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from torchvision.transforms import v2
from torchvision import transforms


class Gray(Dataset):
    def __init__(self, files, transform):
        self.files = files
        self.transform = transform

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        return self.transform(Image.open(self.files[i]).convert("L"))


tf = v2.Compose([v2.Resize((256, 320)), v2.CenterCrop((240, 300)), v2.ToImage(), v2.ToDtype(torch.float16, scale=True)])
half = DataLoader(Gray(["a.png"], tf), batch_size=16, num_workers=2)
raw = DataLoader(Gray(["a.png"], transforms.Compose([transforms.Resize((64, 64)), transforms.PILToTensor()])), batch_size=16, num_workers=2)
